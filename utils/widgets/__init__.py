"""Interactive widgets of the course. The logic of each lives in plain, tested functions;
the widget layer is thin and redraws figures in place (see canvas.FigureWidget)."""
