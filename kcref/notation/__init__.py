"""The log notation: reading text into events, syntax messages, and writing events back as text."""
