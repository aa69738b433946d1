/** What following a session uses of its journal (the follower, its writer requests, a controller's attachment). */
import type { JournalWatch } from "../../journal/journal-watch.ts";
import type { ControllerStore, FactStore, LeaseStore } from "../../journal/store.ts";

/** Its facts, who holds it, its side rows (claims, the inbox, attachments) and the watcher; never the replay cache. */
export type FollowStore = FactStore & LeaseStore & ControllerStore & JournalWatch;
