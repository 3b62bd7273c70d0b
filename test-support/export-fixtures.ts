import type { TSessionExport } from "@cohort/contracts";

/**
 * A small valid session export (decision 043's JSON format, version 1), written by hand as
 * another server might have: one question, one completed run with one synthesis step, and
 * the answer. For the server's import tests and the browser's import test alike.
 */
export function handmadeExport(
  options: { title?: string; description?: string; question?: string; answer?: string } = {},
): TSessionExport {
  const at = "2026-01-02T03:04:05.000Z";
  const ids = {
    message: "11111111-1111-4111-8111-111111111111",
    answer: "22222222-2222-4222-8222-222222222222",
    run: "33333333-3333-4333-8333-333333333333",
    step: "44444444-4444-4444-8444-444444444444",
  };
  const ref = { model: "coreason", model_name: "CoReason", provider: "simulator", simulated: true };
  return {
    format: "cohort.session",
    version: 1,
    exported_at: at,
    session: {
      id: "55555555-5555-4555-8555-555555555555",
      title: options.title ?? "Handmade",
      description: options.description ?? "",
      coordinator_model: "coreason",
      manual_agent_selection: false,
      agent_preferences: null,
      budget_credits: null,
      spent_credits: 1.5,
      status: "active",
      created_at: at,
    },
    messages: [
      {
        id: ids.message,
        session_id: "x",
        role: "user",
        content: options.question ?? "Size it",
        run_id: ids.run,
        created_at: at,
      },
      {
        id: ids.answer,
        session_id: "x",
        role: "assistant",
        content: options.answer ?? "Done.",
        run_id: ids.run,
        created_at: at,
      },
    ],
    runs: [
      {
        id: ids.run,
        session_id: "x",
        message_id: ids.message,
        result_message_id: ids.answer,
        status: "completed",
        mode: "automatic",
        coordinator_model: "coreason",
        plan: null,
        critic_score: null,
        total_credits: 1.5,
        input_tokens: 10,
        output_tokens: 20,
        error: null,
        first_seq: 1,
        created_at: at,
        finished_at: at,
        steps: [
          {
            id: ids.step,
            kind: "synthesis",
            step_id: null,
            role: null,
            ...ref,
            status: "completed",
            stopped: false,
            input_tokens: 10,
            output_tokens: 20,
            credits: 1.5,
            latency_ms: 5,
            ttft_ms: 1,
            output: options.answer ?? "Done.",
            error: null,
            started_at: at,
            finished_at: at,
            version: 1,
            rerun_of: null,
            temperature: null,
            critic_score: null,
          },
        ],
        passages: [],
        cited: [],
        memories: [],
        imported: false,
        critic_verdicts: [],
        tool_calls: [],
      },
    ],
    documents: [],
    images: [],
  };
}
