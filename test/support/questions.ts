/** AskUserQuestion inputs the tests share, and the prompt that makes the scripted model call it. */

/** A single-choice question: which database (Postgres or SQLite). */
export const databaseQuestion = {
  question: "Which database should the service use?",
  header: "Database",
  options: [
    { label: "Postgres", description: "The team runs it already" },
    { label: "SQLite", description: "One file, no server" },
  ],
  multiSelect: false,
};

/** The prompt that has scripted/call call AskUserQuestion with `questions`. */
export const askPrompt = (questions: object[]) => `AskUserQuestion ${JSON.stringify({ questions })}`;
