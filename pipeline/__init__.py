"""trigsight: a site whose assistant can only cite sentences a browser proved are there."""

__version__ = "0.1.0"
