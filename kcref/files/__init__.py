"""Finding and opening what a command reads, and writing files safely."""
