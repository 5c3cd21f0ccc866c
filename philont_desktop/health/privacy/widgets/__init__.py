"""The Privacy page's widgets, one a file: the scan bar, the filters, the summary by kind and layer, the
context of a finding, the actions on the selected findings, the purge's confirmation and its result."""
