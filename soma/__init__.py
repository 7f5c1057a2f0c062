"""soma: solve, count and see polycube packing puzzles, with placements as bit masks.

The Soma cube (seven pieces V L T Z A B P in a 3x3x3 box) has 11,520 fixed solutions,
480 up to rotation and 240 up to rotation and reflection.
"""
__version__ = "0.1.0"
