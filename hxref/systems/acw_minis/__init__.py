"""ACW miniatures on a measured table."""
