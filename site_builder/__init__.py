"""site-builder: a static-site generator for decision records that also publishes for agents.

Data flows one way: config → archive → (query | build) → (cli | mcp | files on disk).
"""

__version__ = "0.1.0"
__all__ = ["__version__"]
