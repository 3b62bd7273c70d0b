import type { TLocalModelServersResponse } from "@cohort/contracts";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../../components/button";
import { SectionCard } from "../../components/section-header";
import { toast } from "../../components/toast/toast-store";
import { api } from "../../lib/api/api";
import { chatKeys } from "../chat/chat-api";

const LOCAL_SERVERS_QUERY_KEY = ["models", "local-servers"] as const;
/** CoChat's model list: local models join it too. */
const COCHAT_MODELS_QUERY_KEY = ["cochat", "models"] as const;

function countModels(count: number): string {
  return count === 1 ? "1 model" : `${count} models`;
}

/**
 * Local model servers found on this machine (decision 056): Ollama, LM Studio, llama.cpp and
 * vLLM are looked for at start; "Look again" finds one started since, and its models join
 * every model list at once.
 */
export function LocalModels() {
  const queryClient = useQueryClient();
  const [looking, setLooking] = useState(false);
  const { data } = useQuery({
    queryKey: LOCAL_SERVERS_QUERY_KEY,
    queryFn: ({ signal }) =>
      api.get<TLocalModelServersResponse>("/models/local-servers", { signal }),
  });

  const lookAgain = async () => {
    setLooking(true);
    try {
      const found = await api.post<TLocalModelServersResponse>("/models/local-servers/look-again");
      queryClient.setQueryData(LOCAL_SERVERS_QUERY_KEY, found);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: chatKeys.models }),
        queryClient.invalidateQueries({ queryKey: chatKeys.roles }),
        queryClient.invalidateQueries({ queryKey: COCHAT_MODELS_QUERY_KEY }),
      ]);
      const models = found.servers.reduce((sum, server) => sum + server.models.length, 0);
      toast({
        title:
          found.servers.length === 0
            ? "No local model server found"
            : `Found ${countModels(models)} on ${found.servers.map((s) => s.name).join(", ")}`,
        variant: found.servers.length === 0 ? "info" : "success",
      });
    } catch {
      toast({ title: "Could not look for local models. Please try again.", variant: "error" });
    } finally {
      setLooking(false);
    }
  };

  return (
    <SectionCard
      testId="local-models"
      title="Local models"
      lead="Models running on this server's machine answer for free, with no key: Ollama (port 11434), LM Studio (1234), llama.cpp (8080) and vLLM (8000) are found by themselves."
      action={
        data?.discovery === "on" ? (
          <Button variant="secondary" size="sm" disabled={looking} onClick={() => void lookAgain()}>
            {looking ? "Looking…" : "Look again"}
          </Button>
        ) : null
      }
    >
      {data === undefined ? null : data.discovery === "configured" ? (
        <p className="mt-3 text-sm text-ink-700">
          This installation names its model server (OPENAI_COMPATIBLE_BASE_URL), so Cohort does not
          look for others.
        </p>
      ) : data.discovery === "off" ? (
        <p className="mt-3 text-sm text-ink-700">
          Looking for local model servers is turned off on this installation
          (LOCAL_MODEL_DISCOVERY=0).
        </p>
      ) : data.servers.length === 0 ? (
        <p className="mt-3 text-sm text-ink-700" role="status">
          No local model server is running. Start one (for example <code>ollama serve</code>), then
          choose Look again.
        </p>
      ) : (
        <ul className="mt-3 grid gap-2" role="status" aria-label="Local model servers">
          {data.servers.map((server) => (
            <li key={server.port} className="text-sm text-ink-700">
              <span className="font-semibold text-ink-950">{server.name}</span> on port{" "}
              {server.port}: {countModels(server.models.length)} —{" "}
              {server.models.map((model) => model.name).join(", ")}
            </li>
          ))}
        </ul>
      )}
    </SectionCard>
  );
}
