/** What a configured model holds and costs, from the resolved configuration alone. */
import { stepCost } from "./pricing.ts";
import type { ResolvedProvider } from "./provider-config.ts";
import type { Provider } from "./types.ts";

/** Every configured provider answers `contextWindow` and `cost` this way, before and after its adapter loads. */
export function modelFacts(config: ResolvedProvider): Pick<Provider, "contextWindow" | "cost"> {
  return {
    contextWindow: (model) => config.model(model).contextWindow,
    cost: (model, usage) => stepCost(config.model(model).price, usage),
  };
}
