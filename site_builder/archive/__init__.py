"""The archive: the only code that knows what a decision record is.

records.py parses one file, origins.py says where records come from (content roots and
sources), loader.py reads content roots into an Archive,
archive.py holds the records with their derived lineage, reviews and sign-offs.
"""
