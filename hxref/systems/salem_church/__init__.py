"""Musket & Sabre: Salem Church (issue 6)."""
