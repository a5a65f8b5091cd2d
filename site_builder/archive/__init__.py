"""The archive: the only code that knows what a decision record is.

records.py parses one file, origins.py says where records come from (content roots and
sources), loader.py reads content roots into an Archive,
archive.py holds the records with their derived lineage, reviews and sign-offs, and
checks.py finds the problems that need more than one record to see (bulk.py keeps such
whole-archive work free of garbage-collector passes).
"""
