// shguard's OpenCode plugin: before every bash call it asks
// `shguard hook --protocol opencode` and applies the answer: new args (a
// command that cannot hang the tool), a refusal (thrown: the call fails
// with the reason, the run goes on), advice (appended to the call's
// output for the model). If shguard cannot be run or answers nothing,
// the call goes ahead unchanged. Put this file in .opencode/plugins/
// (project) or ~/.config/opencode/plugins/ (user).
import { spawnSync } from "node:child_process";

export const Shguard = async ({ directory }) => {
  const notes = new Map();
  return {
    "tool.execute.before": async (input, output) => {
      if (input.tool !== "bash") return;
      const payload = JSON.stringify({
        tool: input.tool, sessionID: input.sessionID, callID: input.callID,
        args: output.args, directory, shell: process.env.SHELL || "",
      });
      const r = spawnSync("shguard", ["hook", "--protocol", "opencode"], { input: payload, encoding: "utf8", timeout: 10000 });
      if (r.error || r.status !== 0 || !r.stdout.trim()) return;
      let ans;
      try { ans = JSON.parse(r.stdout); } catch { return; }
      if (ans.context) notes.set(input.callID, ans.context);
      if (ans.deny) throw new Error(ans.deny);
      if (ans.args) Object.assign(output.args, ans.args);
    },
    "tool.execute.after": async (input, output) => {
      const note = notes.get(input.callID);
      if (!note) return;
      notes.delete(input.callID);
      if (typeof output.output === "string") output.output += "\n\n" + note;
    },
  };
};
