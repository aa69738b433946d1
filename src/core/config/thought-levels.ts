/** How hard the model thinks: a session's config option, given to every provider request. */
export const THOUGHT_LEVELS = ["off", "low", "medium", "high"] as const;

export type ThoughtLevel = (typeof THOUGHT_LEVELS)[number];

export const thoughtLevels: { id: ThoughtLevel; name: string; description: string }[] = [
  { id: "off", name: "Off", description: "No extended thinking" },
  { id: "low", name: "Low", description: "Think briefly" },
  { id: "medium", name: "Medium", description: "Think when it helps" },
  { id: "high", name: "High", description: "Think hard" },
];

export const isThoughtLevel = (v: string): v is ThoughtLevel => thoughtLevels.some((t) => t.id === v);
