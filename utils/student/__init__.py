"""The student edition: the course's notebooks with the exercises as stubs, and the student's own copies.

`student/` (committed) is generated from the instructors' notebooks (`notebooks/`, `notebooks/zh/`), the one
source: solutions stubbed and hidden tests removed by utils.grading.release, speaker-notes cells left out.
A student works in `my-work/` (ignored by git), filled from `student/` by `python -m utils.student open`,
so a course update is a plain `git pull`. `python -m utils.student check` grades a copy against the hidden tests.
"""
