import type { TAdminModel } from "@cohort/contracts";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { failureMessage } from "../../auth/account-api";
import { Badge } from "../../components/badge";
import { Button } from "../../components/button";
import { Card } from "../../components/card";
import { Field, FormMessage } from "../../components/form";
import { toast } from "../../components/toast/toast-store";
import { formatNumber } from "../../lib/format/numbers";
import { usePendingAction } from "../../lib/ui/use-pending-action";
import { adminKeys, fetchModels, overrideModel } from "./admin-api";
import { ProviderHealthTable } from "./admin-dashboard-page";
import { AdminPage, QueryState } from "./admin-page";

/** Models: provider health, and per model on/off and a price override (no restart needed). */
export function ModelsSection() {
  const { data, isPending, isError } = useQuery({
    queryKey: adminKeys.models,
    queryFn: ({ signal }) => fetchModels(signal),
  });
  return (
    <AdminPage
      title="Models"
      description="Switch models off and override prices; changes apply within seconds on every server."
    >
      {isPending || isError ? (
        <QueryState isError={isError} label="the models" />
      ) : (
        <>
          <Card className="p-5">
            <h2 className="text-base font-semibold text-ink-950">Provider health</h2>
            <ProviderHealthTable providers={data.providers} />
          </Card>
          <Card className="p-5">
            <h2 className="text-base font-semibold text-ink-950">Catalogue</h2>
            <p className="mt-1 text-sm text-ink-600">
              Prices are credits per 1,000 tokens. Default models of a role or of CoChat cannot be
              switched off.
            </p>
            <ul className="mt-4 divide-y divide-ink-100" data-testid="admin-models">
              {data.models.map((model) => (
                <ModelRow key={model.id} model={model} />
              ))}
            </ul>
          </Card>
        </>
      )}
    </AdminPage>
  );
}

function ModelRow({ model }: { model: TAdminModel }) {
  const queryClient = useQueryClient();
  const enabledId = useId();
  const [enabled, setEnabled] = useState(model.enabled);
  const [input, setInput] = useState(String(model.price.input_per_1k));
  const [output, setOutput] = useState(String(model.price.output_per_1k));
  const [reason, setReason] = useState("");
  const { pending, error, run } = usePendingAction((cause) =>
    failureMessage(cause, "Could not save the model. Please try again."),
  );

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const price = { input_per_1k: Number(input), output_per_1k: Number(output) };
    const samePrice =
      price.input_per_1k === model.catalogue_price.input_per_1k &&
      price.output_per_1k === model.catalogue_price.output_per_1k;
    void run(async () => {
      await overrideModel(model.id, { enabled, price: samePrice ? null : price, reason });
      toast({ title: `${model.name} saved`, variant: "success" });
      setReason("");
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
    });
  };

  return (
    <li className="py-3">
      <details>
        <summary className="flex cursor-pointer flex-wrap items-center gap-x-3 gap-y-1 text-sm">
          <span className="font-medium text-ink-950">{model.name}</span>
          <span className="font-mono text-xs text-ink-500">{model.id}</span>
          <span className="text-xs text-ink-500">{model.providers.join(", ")}</span>
          {model.enabled ? <Badge tone="success">On</Badge> : <Badge tone="danger">Off</Badge>}
          {model.price_overridden ? <Badge tone="warning">Price overridden</Badge> : null}
          {model.required ? <Badge tone="neutral">Default</Badge> : null}
          <span className="ml-auto text-xs text-ink-600 tabular-nums">
            {formatNumber(model.price.input_per_1k, 4)} in ·{" "}
            {formatNumber(model.price.output_per_1k, 4)} out
          </span>
        </summary>
        <form
          onSubmit={onSubmit}
          aria-label={`Change ${model.name}`}
          className="mt-3 grid gap-3 rounded-xl bg-ink-50 p-4 sm:grid-cols-2"
        >
          <div className="flex items-center gap-2 sm:col-span-2">
            <input
              id={enabledId}
              type="checkbox"
              className="size-4 accent-brand-600"
              checked={enabled}
              disabled={model.required}
              onChange={(e) => setEnabled(e.target.checked)}
            />
            <label htmlFor={enabledId} className="text-sm text-ink-800">
              Available to users
            </label>
          </div>
          <Field
            label="Input price per 1k tokens"
            type="number"
            min={0}
            step="any"
            required
            hint={`Catalogue: ${model.catalogue_price.input_per_1k}`}
            value={input}
            onChange={(e) => setInput(e.target.value)}
          />
          <Field
            label="Output price per 1k tokens"
            type="number"
            min={0}
            step="any"
            required
            hint={`Catalogue: ${model.catalogue_price.output_per_1k}`}
            value={output}
            onChange={(e) => setOutput(e.target.value)}
          />
          <Field
            label="Reason"
            className="sm:col-span-2"
            required
            maxLength={500}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
          <FormMessage>{error}</FormMessage>
          <div className="sm:col-span-2">
            <Button type="submit" size="sm" disabled={pending}>
              {pending ? "Loading..." : "Save"}
            </Button>
          </div>
        </form>
      </details>
    </li>
  );
}
