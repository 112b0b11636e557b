/**
 * Node functions of seed 001. Each receives exactly the fields its schema lists (the projection) and
 * returns a partial update; the generated types make reading a field outside the schema a type error
 * (the seed's `KeyError` when node_1 reads `nickname`).
 */
import type {
  MultiSchemaNode1Read,
  MultiSchemaNode1Update,
  MultiSchemaNode2Read,
  MultiSchemaNode2Update,
  MultiSchemaNode3Read,
  MultiSchemaNode3Update,
} from "./multi_schema.graph.ts";

/** reads InputState, writes OverAllState.nickname */
export function node1(state: MultiSchemaNode1Read): MultiSchemaNode1Update {
  return { nickname: `Dear ${state.username}` };
}

/** reads OverAllState, writes PrivateState.greeting */
export function node2(state: MultiSchemaNode2Read): MultiSchemaNode2Update {
  return { greeting: `${state.nickname}, 早上好~` };
}

/** reads PrivateState, writes OutputState.graph_output */
export function node3(state: MultiSchemaNode3Read): MultiSchemaNode3Update {
  return { graph_output: `${state.greeting} 很高兴认识你` };
}
