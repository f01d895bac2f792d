"""Release and grade the course's nbgrader-style exercises (`python -m utils.grading --help`).

Modules, each doing one thing:
    notebook   -- read nbgrader metadata and markers, list the exercises (title, deny-list, parts), validate a source
    release    -- student versions: solutions become stubs, hidden tests are removed
    assemble   -- a submission with the original test cells put back, ready to run
    guard      -- snapshot and restore the package's and libraries' attributes (in the child)
    deny       -- the deny-lists and the monitor of denied calls (Python functions by code, builtins by identity)
    operations -- torch operations by every name they go by and the ATen kernels they run
    torch_watch -- the TorchFunctionMode and TorchDispatchMode that see those operations however reached
    parts      -- `with part(name, points):` in a test cell, for partial credit
    harness    -- what the child does: run one submission's cells, report each test out of band
    zygote     -- a helper that loads the libraries once and forks one limited child per submission
    sandbox    -- the parent's side: start the helper, send jobs, verify the records, survive its death
    bwrap      -- the bubblewrap sandbox the helper runs in; grading refuses without one unless --sandbox off
    scrub      -- keep hidden-test source out of the feedback
    rows       -- one grade-book row per exercise from a run's verified records, worded in the student's language
    gradebook  -- the CSV grade books (per exercise; per student, for an LMS) and feedback files, written atomically
    grade      -- grade a folder of submissions, one folder per student
    shard, merge -- grade a class in N shares and join their grade books
"""
