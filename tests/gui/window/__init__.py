"""Tests of the window's composition (gui/window/)."""
