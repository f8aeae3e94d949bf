"""Results → chart specs, static SVG and the Vega runtime."""
