/**
 * The `Command` class users make (and nodes return). Constructing one installs the code that runs a Command
 * given as input or returned where the static loop does not expect one (install.ts `installCommandInput`):
 * a Command as input comes with a Command, so a program that never makes one carries none of that code.
 * A Command of another shape (a LangGraph.js one, or a plain object with its tag) runs once something
 * installed it: "@graphc/runtime", a saver, or a `Command` made anywhere in the program.
 */
import { PARENT, gotoList, type Command as CommandShape, type CommandArgs } from "./command.ts";
import { installCommandInput } from "./install.ts";

// the instance's fields are the runtime's view of a Command (command.ts), merged into the class: declared once
export interface Command<R = unknown> extends CommandShape<R> {}

export class Command<R = unknown> {
  // reference §8 C-39
  /** LangGraph's constant; the literal "PARENT" is not it */
  static readonly PARENT = PARENT;

  constructor(args: CommandArgs<R>) {
    installCommandInput();
    // the fields in one shape, in this order, for every Command (readonly to everyone else); `goto` a list
    Object.assign(this, {
      lg_name: "Command",
      update: args.update,
      goto: gotoList(args as CommandShape),
      graph: args.graph,
      resume: args.resume,
    });
  }
}
