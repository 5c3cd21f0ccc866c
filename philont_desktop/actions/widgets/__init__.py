"""The widgets of the Actions tab: the filter bar and the detail pane (the chart is in ``chart.py``)."""
