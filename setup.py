"""Only the package list, which pyproject.toml cannot compute: every package under hxref/ (so a
new game system needs no line here) and the two data folders installed under hxref.data."""
from setuptools import find_packages, setup

setup(packages=find_packages(include=["hxref", "hxref.*"]) + ["hxref.data.games", "hxref.data.orders"])
