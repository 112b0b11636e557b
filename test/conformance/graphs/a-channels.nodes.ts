/** Node functions and reducers of a-channels.graph (reference §8 group A). */
import { Command, Overwrite, RemoveMessage, REMOVE_ALL_MESSAGES, type Message } from "@graphc/runtime";

/** string concatenation, LangGraph's `(x, y) => x + y` */
export const concat = (a: string, b: string): string => a + b;

export const marketSlow = () => ({ market: " slow" });
export const marketFast = () => ({ market: " fast" });

export const plusOne = (s: { value: number }) => ({ output: [s.value + 1] });

/** what an untyped JS node could return: the cast stands for code TypeScript does not check */
export const returnsNumber = () => 123 as never;

/** C-4: `undefined` keeps the old value */
export const keepOld = (x: string | undefined, y: string | undefined): string | undefined => y ?? x;
export const updateTest = () => ({ test: "test", reducerField: "should not be wiped" });
export const wipeFields = () => ({ test: undefined, reducerField: undefined });

export const addAB = () => ({ items: ["a", "b"] });
export const replaceList = () => ({ items: new Overwrite(["replaced"]) });
/** the wire form a JSON client would send */
export const replaceWire = () => ({ items: { __overwrite__: ["replaced"] } as never });
export const addFive = () => ({ total: 5 });
export const resetSum = () => ({ total: new Overwrite(0) });
export const addThree = () => ({ total: 3 });
export const overwriteEmpty = () => ({ items: new Overwrite<string[]>([]) });
export const addA = () => ({ items: ["a"] });
export const overwriteX = () => ({ items: new Overwrite(["x"]) });
export const addY = () => ({ items: ["y"] });
export const overwriteOne = () => ({ items: new Overwrite(["one"]) });
export const overwriteTwo = () => ({ items: new Overwrite(["two"]) });
export const plainY = () => ({ items: ["y"] });

const m = (id: string, content: string): Message => ({ id, role: "user", content });
export const msgAdd = () => ({ messages: [m("1", "hi"), m("2", "there")] });
/** same id replaces in place; the same id twice in one update: the last wins; a new id appends */
export const msgReplace = () => ({ messages: [m("1", "hi!"), m("3", "new"), m("1", "hi!!")] });
export const msgRemove = () => ({ messages: [new RemoveMessage("2"), new RemoveMessage("2")] as never as Message[] });
export const msgRemoveUnknown = () => ({ messages: [new RemoveMessage("nope")] as never as Message[] });
export const msgRemoveAll = () => ({
  messages: [m("0", "dropped"), new RemoveMessage(REMOVE_ALL_MESSAGES), m("4", "kept")] as never as Message[],
});

/** C-9: a list of Commands (typed nodes return one Command; an untyped JS node may return a list) */
export const twoCommands = () => [new Command({ update: { value: "a1" } }), new Command({ update: { value: "a2" } })] as never;
export const oneB = () => ({ value: "b" });

/** C-10: LangGraph's reducer: join with ", ", dropping empty values */
export const joinComma = (a: string, b: string): string => [a, b].filter((x) => x).join(", ");
export const tupleUpdate = () =>
  new Command({
    update: [
      ["foo", "one.0"],
      ["foo", "one.1"],
    ],
  }) as never;
export const two = () => ({ foo: "two" });

export const addItem1 = () => ({ items: "item1", count: 1 });
export const addItem2 = () => ({ items: "item2", count: 1 });
