// The AI SDK's chat client without a framework: its AbstractChat (what useChat wraps) over a
// state that tells the page when to draw.
import { AbstractChat, type ChatInit, type ChatState, type ChatStatus, type UIMessage } from "ai";

class ObservedState<M extends UIMessage> implements ChatState<M> {
  #messages: M[];
  #status: ChatStatus = "ready";
  #error: Error | undefined = undefined;
  readonly #changed: () => void;

  constructor(messages: M[], changed: () => void) {
    this.#messages = messages;
    this.#changed = changed;
  }

  get messages(): M[] {
    return this.#messages;
  }
  set messages(messages: M[]) {
    this.#messages = messages;
    this.#changed();
  }
  get status(): ChatStatus {
    return this.#status;
  }
  set status(status: ChatStatus) {
    this.#status = status;
    this.#changed();
  }
  get error(): Error | undefined {
    return this.#error;
  }
  set error(error: Error | undefined) {
    this.#error = error;
    this.#changed();
  }
  pushMessage = (m: M): void => {
    this.messages = [...this.#messages, m];
  };
  popMessage = (): void => {
    this.messages = this.#messages.slice(0, -1);
  };
  replaceMessage = (index: number, m: M): void => {
    this.messages = this.#messages.map((x, i) => (i === index ? m : x));
  };
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

/** A chat of the AI SDK's client; `onChange` runs after every change of its messages, status or error. */
export class VanillaChat<M extends UIMessage = UIMessage> extends AbstractChat<M> {
  constructor({ onChange = () => {}, messages = [], ...init }: ChatInit<M> & { onChange?: () => void }) {
    super({ ...init, state: new ObservedState<M>(messages, () => onChange()) });
  }
}
