/**
 * Loaded before every test file (bunfig.toml): the suite's agents run commands outside the OS
 * sandbox, so that a test about something else sees the permission questions it was written
 * for. The sandbox's own tests (test/sandbox/) turn it back on for the agents they start
 * (`sandboxOn` in test/support/sandbox-env.ts).
 */
process.env.VERBATIM_SANDBOX = "off";
