"""ACW miniatures on a measured table (issue 8)."""
