import type { ThoughtLevel } from "../providers/types.ts";

export const thoughtLevels: { id: ThoughtLevel; name: string; description: string }[] = [
  { id: "off", name: "Off", description: "No extended thinking" },
  { id: "low", name: "Low", description: "Think briefly" },
  { id: "medium", name: "Medium", description: "Think when it helps" },
  { id: "high", name: "High", description: "Think hard" },
];

export const isThoughtLevel = (v: string): v is ThoughtLevel => thoughtLevels.some((t) => t.id === v);
