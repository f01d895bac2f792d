"""Release and grade the course's nbgrader-style exercises (`python -m utils.grading --help`).

Modules, each doing one thing:
    notebook   -- read nbgrader metadata and markers, list the exercises, validate a source
    release    -- student versions: solutions become stubs, hidden tests are removed
    assemble   -- a submission with the original test cells put back, ready to run
    guard      -- snapshot and restore the package's and libraries' attributes (in the child)
    harness    -- the child process that runs one submission and reports out of band
    sandbox    -- run the harness in its own process group with time and memory limits
    gradebook  -- the CSV grade book (written atomically) and per-student feedback files
    grade      -- grade a folder of submissions, one folder per student
"""
