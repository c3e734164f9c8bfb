// Does nothing: recording it measures the fixed cost of a recorded run (starting the preload).
