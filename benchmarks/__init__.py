"""Side-by-side benchmarks of torch and shadowgrad (`python -m benchmarks`)."""
