"""Tests of the legend (gui/legend/)."""
