"""Explorations: parameter changes that the notebooks offer (corpora, Try-its), each run top to bottom with no red cell."""
