"""Everything printed: check and score formats, tables, charts, the table view and the rules text."""
