"""Project + Results → template contexts and rendered pages."""
