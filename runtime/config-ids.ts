/**
 * The runtime's side of checkpoint/config-ids.ts: every public entry (invoke, stream, getState,
 * getStateHistory, updateState) reads `thread_id`, `checkpoint_ns` and `checkpoint_id` through here, so a bad
 * id fails as `INVALID_CONFIG` naming the key and the graph before anything is loaded or saved.
 */
import { CONFIG_ID_KEYS, type ConfigIdKey, configId, invalidIdMessage } from "./checkpoint/config-ids.ts";
import { GraphValueError } from "./errors.ts";

function failFor(graph: string): (key: ConfigIdKey, found: string) => Error {
  return (key, found) =>
    new GraphValueError(`Graph "${graph}": ${invalidIdMessage(key, found)}`, { graph, field: key }, "INVALID_CONFIG");
}

/** `config.configurable.<key>` as a string (numbers converted), or `INVALID_CONFIG`. */
export function configIdOf(
  configurable: Readonly<Record<string, unknown>> | undefined,
  key: ConfigIdKey,
  graph: string,
): string | undefined {
  return configId(configurable, key, failFor(graph));
}

/**
 * `config` with its ids checked and numbers turned into strings: the same object when nothing changes (the
 * common case costs no copy), else a copy with a new `configurable`.
 */
export function checkConfigIds<C extends { configurable?: Record<string, unknown> | undefined }>(
  config: C,
  graph: string,
): C {
  const configurable = config.configurable;
  if (configurable === undefined) return config;
  let changed: Record<string, unknown> | undefined;
  for (const key of CONFIG_ID_KEYS) {
    const raw = configurable[key];
    const id = configIdOf(configurable, key, graph);
    if (id !== raw && raw !== null) (changed ??= { ...configurable })[key] = id;
  }
  return changed === undefined ? config : { ...config, configurable: changed };
}
