"""The recogniser (numpy + OpenCV): the camera over the discard pile tells what was played."""
