"""The archive: the only code that knows what a decision record is.

records.py parses one file, loader.py reads a content folder into an Archive,
archive.py holds the records with their derived lineage, reviews and sign-offs.
"""
