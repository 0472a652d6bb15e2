"""Tests of what the parts share (gui/shared/)."""
