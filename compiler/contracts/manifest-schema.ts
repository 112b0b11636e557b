/**
 * The JSON Schema of the manifest (manifest-types.ts), as data: `graphc diff --against FILE` validates a
 * manifest file with it before trusting it, and docs/schema/manifest.schema.json is this object written out
 * (test/contracts/manifest.test.ts keeps the file in step; re-bless with GRAPHC_BLESS=1).
 */
import type { JsonSchema } from "../schema/json-schema.ts";

export const MANIFEST_SCHEMA: JsonSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  title: "graphc manifest",
  description:
    "What `graphc manifest` writes: every named graph with its metadata, contract schemas, fields, nodes, subgraphs, slots, vars and interrupts, and every interface (docs/contracts.md).",
  type: "object",
  properties: {
    format: {
      const: "graphc-manifest/1",
    },
    graphs: {
      type: "array",
      items: {
        $ref: "#/$defs/graph",
      },
    },
    interfaces: {
      type: "array",
      items: {
        $ref: "#/$defs/interface",
      },
    },
  },
  required: ["format", "graphs"],
  additionalProperties: false,
  $defs: {
    name: {
      type: "string",
      pattern: "^[A-Za-z_][A-Za-z0-9_$]*$",
    },
    names: {
      type: "array",
      items: {
        $ref: "#/$defs/name",
      },
    },
    relativePath: {
      description: "a path relative to where graphc ran, posix separators, never absolute",
      type: "string",
      pattern: "^(?![A-Za-z]:)[^/\\\\].*$",
    },
    jsonSchema: {
      description: "a JSON Schema 2020-12 document (compiler/schema/json-schema.ts)",
      type: "object",
    },
    graph: {
      type: "object",
      properties: {
        name: {
          $ref: "#/$defs/name",
        },
        file: {
          $ref: "#/$defs/relativePath",
        },
        meta: {
          $ref: "#/$defs/meta",
        },
        input: {
          $ref: "#/$defs/jsonSchema",
        },
        output: {
          $ref: "#/$defs/jsonSchema",
        },
        state: {
          $ref: "#/$defs/jsonSchema",
        },
        fields: {
          type: "object",
          additionalProperties: {
            $ref: "#/$defs/field",
          },
        },
        nodes: {
          type: "array",
          items: {
            $ref: "#/$defs/node",
          },
        },
        subgraphs: {
          type: "array",
          items: {
            $ref: "#/$defs/subgraph",
          },
        },
        vars: {
          type: "object",
          additionalProperties: {
            $ref: "#/$defs/var",
          },
        },
        slots: {
          type: "array",
          items: {
            $ref: "#/$defs/slot",
          },
        },
        implements: {
          type: "array",
          items: {
            type: "object",
            properties: { name: { $ref: "#/$defs/name" }, source: { $ref: "#/$defs/relativePath" } },
            required: ["name", "source"],
            additionalProperties: false,
          },
        },
        interrupts: {
          type: "object",
          properties: {
            before: {
              $ref: "#/$defs/names",
            },
            after: {
              $ref: "#/$defs/names",
            },
          },
          required: ["before", "after"],
          additionalProperties: false,
        },
      },
      required: ["name", "file", "meta", "input", "output", "state", "fields", "nodes", "subgraphs", "vars", "implements", "interrupts"],
      additionalProperties: false,
    },
    meta: {
      type: "object",
      properties: {
        owner: {
          type: "string",
        },
        version: {
          type: "string",
          pattern:
            "^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*)?(?:\\+[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*)?$",
        },
        description: {
          type: "string",
        },
      },
      additionalProperties: false,
    },
    field: {
      type: "object",
      properties: {
        type: {
          description: "the type as TypeScript",
          type: "string",
        },
        reducer: {
          description: "a built-in reducer, or module#export",
          type: "string",
        },
        default: {
          description: "the initial value (any JSON)",
        },
        ephemeral: {
          type: "boolean",
        },
        origin: {
          enum: ["state", "input", "output", "private"],
        },
      },
      required: ["type", "reducer", "ephemeral", "origin"],
      additionalProperties: false,
    },
    node: {
      type: "object",
      properties: {
        name: {
          $ref: "#/$defs/name",
        },
        kind: {
          enum: ["function", "subgraph"],
        },
        fn: {
          description: "module#export of a function node's function",
          type: "string",
        },
        reads: {
          $ref: "#/$defs/names",
        },
        writes: {
          $ref: "#/$defs/names",
        },
      },
      required: ["name", "kind", "reads", "writes"],
      additionalProperties: false,
    },
    subgraph: {
      type: "object",
      properties: {
        node: {
          $ref: "#/$defs/name",
        },
        graph: {
          $ref: "#/$defs/name",
        },
        source: {
          description: "the declaring .graph file, or `inline`",
          $ref: "#/$defs/relativePath",
        },
        via: {
          enum: ["subgraph", "uses"],
        },
      },
      required: ["node", "graph", "source", "via"],
      additionalProperties: false,
    },
    interface: {
      type: "object",
      properties: {
        name: { $ref: "#/$defs/name" },
        file: { $ref: "#/$defs/relativePath" },
        input: { $ref: "#/$defs/jsonSchema" },
        output: { $ref: "#/$defs/jsonSchema" },
        fields: { type: "object", additionalProperties: { $ref: "#/$defs/field" } },
      },
      required: ["name", "file", "input", "output", "fields"],
      additionalProperties: false,
    },
    slot: {
      type: "object",
      properties: {
        node: { $ref: "#/$defs/name" },
        interface: { $ref: "#/$defs/name" },
        source: { $ref: "#/$defs/relativePath" },
        default: {
          type: "object",
          properties: { graph: { $ref: "#/$defs/name" }, source: { $ref: "#/$defs/relativePath" } },
          required: ["graph", "source"],
          additionalProperties: false,
        },
      },
      required: ["node", "interface", "source"],
      additionalProperties: false,
    },
    var: {
      type: "object",
      properties: {
        type: {
          type: "string",
        },
        schema: {
          $ref: "#/$defs/jsonSchema",
        },
        default: {
          description: "a constant default (any JSON)",
        },
        template: {
          description: "a default with ${ENV:-fallback} placeholders, resolved per run",
          type: "string",
        },
        required: {
          type: "boolean",
        },
      },
      required: ["type", "schema", "required"],
      additionalProperties: false,
    },
  },
};
