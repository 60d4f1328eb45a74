// Small export files written for the tests.
const node = (id: string, parent: string | null, children: string[], message: object | null) => ({
  id,
  parent,
  children,
  message,
});
const msg = (role: string, content: object, extra: object = {}) => ({
  author: { role, name: null, metadata: {} },
  content,
  metadata: {},
  recipient: "all",
  ...extra,
});
const text = (...parts: unknown[]) => ({ content_type: "text", parts });

/** A ChatGPT conversation with a hidden system node, an image, a python call and its result, reasoning, and an edit. */
export function chatgptSample() {
  return {
    title: "Plot it",
    create_time: 1700000000,
    update_time: 1700000100,
    current_node: "a2",
    conversation_id: "c1",
    default_model_slug: "gpt-4o",
    mapping: {
      root: node("root", null, ["sys"], null),
      sys: node(
        "sys",
        "root",
        ["u1", "u1b"],
        msg("system", text(""), { metadata: { is_visually_hidden_from_conversation: true } }),
      ),
      u1: node(
        "u1",
        "sys",
        ["t1"],
        msg(
          "user",
          {
            content_type: "multimodal_text",
            parts: [
              { content_type: "image_asset_pointer", asset_pointer: "file-service://x" },
              "What is in this chart?",
            ],
          },
          { create_time: 1700000001 },
        ),
      ),
      t1: node(
        "t1",
        "u1",
        ["call"],
        msg("assistant", { content_type: "thoughts", thoughts: [] }, { create_time: 1700000002 }),
      ),
      call: node(
        "call",
        "t1",
        ["out"],
        msg(
          "assistant",
          { content_type: "code", language: "python", text: "print(6 * 7)" },
          { recipient: "python", create_time: 1700000003 },
        ),
      ),
      out: node("out", "call", ["a1"], {
        ...msg("tool", { content_type: "execution_output", text: "42" }, { create_time: 1700000004 }),
        author: { role: "tool", name: "python", metadata: {} },
      }),
      a1: node("a1", "out", ["web"], msg("assistant", text("It is 42."), { create_time: 1700000005 })),
      web: node("web", "a1", [], {
        ...msg("tool", { content_type: "tether_quote", title: "Page", text: "quoted" }, { create_time: 1700000006 }),
        author: { role: "tool", name: "browser", metadata: {} },
      }),
      u1b: node("u1b", "sys", ["a2"], msg("user", text("What is 6 times 7?"), { create_time: 1700000050 })),
      a2: node("a2", "u1b", [], msg("assistant", text("42"), { create_time: 1700000051 })),
    },
  };
}
