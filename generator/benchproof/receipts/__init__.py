"""the downloads, the evidence bundle, the build time and the evidence the site publishes."""
