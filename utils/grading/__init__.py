"""Release and grade the course's nbgrader-style exercises (`python -m utils.grading --help`).

Modules, each doing one thing:
    notebook   -- read nbgrader metadata and markers, list the exercises, validate a source
    release    -- student versions: solutions become stubs, hidden tests are removed
    assemble   -- a submission with the original test cells put back, ready to run
    guard      -- snapshot and restore the package's and libraries' attributes (in the child)
    harness    -- what the child does: run one submission's cells, report each test out of band
    zygote     -- a helper that loads the libraries once and forks one limited child per submission
    sandbox    -- the parent's side: start the helper, send jobs, verify the records, survive its death
    gradebook  -- the CSV grade book (written atomically) and per-student feedback files
    grade      -- grade a folder of submissions, one folder per student
"""
