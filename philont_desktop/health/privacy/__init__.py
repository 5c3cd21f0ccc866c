"""The Privacy page of the Health tab: secrets, personal data and planted instructions found in every layer
(and every backup, when asked), allowed as "not a secret" or purged for real.

:mod:`.page` composes the widgets (:mod:`.widgets`) and runs the scan and the purge through the tab's
controller; :mod:`.model` holds the findings (a table model, its filter and the summary by kind and
layer); :mod:`.ops` the Qt-free calls the workers run; :mod:`.texts` the words (kinds, layers, the
codes of the scan and the purge).
"""
