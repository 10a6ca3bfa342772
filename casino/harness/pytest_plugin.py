"""pytest plugin collecting ``transcripts/**/*.yaml`` as test items (placeholder)."""
