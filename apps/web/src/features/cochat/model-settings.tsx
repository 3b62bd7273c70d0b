import {
  COCHAT_DEFAULT_MAX_TOKENS,
  COCHAT_DEFAULT_TEMPERATURE,
  MODEL_SOURCE_LABELS,
  type TModel,
} from "@cohort/contracts";
import { useId } from "react";
import { cn } from "../../components/cn";
import { inputClasses } from "../../components/form";
import { SimulatedBadge } from "./simulated-badge";

const temperatureFormat = new Intl.NumberFormat("en-US", {
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});
const formatTemperature = (value: number) => temperatureFormat.format(value);

import { ChevronDownIcon } from "../../components/icons";
import type { ChatSettings } from "./use-cochat";

export const DEFAULT_SETTINGS: Omit<ChatSettings, "model"> = {
  temperature: COCHAT_DEFAULT_TEMPERATURE,
  maxTokens: COCHAT_DEFAULT_MAX_TOKENS,
};

/** The model picker (CoChat's own list) with the Simulated badge of the chosen model. */
export function ModelPicker({
  models,
  value,
  onChange,
  disabled,
}: {
  models: readonly TModel[];
  value: string;
  onChange(id: string): void;
  disabled?: boolean;
}) {
  const id = useId();
  const selected = models.find((m) => m.id === value);
  return (
    <div className="flex min-w-0 flex-1 items-center gap-2 sm:flex-none">
      <label
        htmlFor={id}
        className="sr-only text-xs font-semibold tracking-wide text-ink-500 uppercase sm:not-sr-only"
      >
        Model
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        disabled={disabled}
        className={cn(
          inputClasses,
          "h-9 min-w-0 flex-1 py-1.5 pr-8 sm:w-auto sm:max-w-[13rem] sm:flex-none",
        )}
      >
        {models.map((model) => (
          <option key={model.id} value={model.id}>
            {model.name}
            {` (${MODEL_SOURCE_LABELS[model.source]})`}
          </option>
        ))}
      </select>
      {/* On phones the option's own "(Simulated)" says it; the badge would squeeze the picker. */}
      {selected?.simulated ? (
        <span className="hidden sm:inline-flex">
          <SimulatedBadge />
        </span>
      ) : null}
      {selected ? (
        <span className="hidden text-xs text-ink-500 2xl:inline">{selected.purpose}</span>
      ) : null}
    </div>
  );
}

/** Temperature and max tokens, folded away under "Advanced" with the spec's defaults. */
export function AdvancedSettings({
  settings,
  onChange,
  maxTokensLimit,
  disabled,
}: {
  settings: Omit<ChatSettings, "model">;
  onChange(next: Omit<ChatSettings, "model">): void;
  maxTokensLimit: number;
  disabled?: boolean;
}) {
  const temperatureId = useId();
  const tokensId = useId();
  const changed =
    settings.temperature !== DEFAULT_SETTINGS.temperature ||
    settings.maxTokens !== DEFAULT_SETTINGS.maxTokens;
  return (
    <details className="group relative">
      <summary className="flex cursor-pointer list-none items-center gap-1 rounded-lg px-2 py-1.5 text-sm font-medium text-ink-700 hover:bg-ink-100 focus-visible:outline-2 focus-visible:outline-brand-600 [&::-webkit-details-marker]:hidden">
        Advanced
        {changed ? (
          <>
            <span aria-hidden="true" className="size-1.5 rounded-full bg-brand-600" />
            <span className="sr-only">(changed)</span>
          </>
        ) : null}
        <ChevronDownIcon className="size-4 transition-transform group-open:rotate-180" />
      </summary>
      <div className="absolute right-0 z-20 mt-2 grid w-72 gap-4 rounded-xl border border-ink-200 bg-white p-4 shadow-xl shadow-ink-900/10">
        <div>
          <div className="flex items-center justify-between">
            <label htmlFor={temperatureId} className="text-sm font-medium text-ink-800">
              Temperature
            </label>
            <output htmlFor={temperatureId} className="font-mono text-sm text-ink-700">
              {formatTemperature(settings.temperature)}
            </output>
          </div>
          <input
            id={temperatureId}
            type="range"
            min={0}
            max={2}
            step={0.1}
            value={settings.temperature}
            disabled={disabled}
            onChange={(event) => onChange({ ...settings, temperature: Number(event.target.value) })}
            className="mt-2 w-full accent-brand-600"
          />
          <p className="mt-1 text-xs text-ink-500">Lower is more focused, higher more varied.</p>
        </div>
        <div>
          <label htmlFor={tokensId} className="text-sm font-medium text-ink-800">
            Max tokens
          </label>
          <input
            id={tokensId}
            type="number"
            min={1}
            max={maxTokensLimit}
            step={1}
            value={settings.maxTokens}
            disabled={disabled}
            onChange={(event) => {
              const value = Math.round(Number(event.target.value));
              if (Number.isFinite(value)) {
                onChange({
                  ...settings,
                  maxTokens: Math.min(maxTokensLimit, Math.max(1, value)),
                });
              }
            }}
            className={cn(inputClasses, "mt-1.5")}
          />
          <p className="mt-1 text-xs text-ink-500">The longest answer, up to {maxTokensLimit}.</p>
        </div>
        <button
          type="button"
          onClick={() => onChange(DEFAULT_SETTINGS)}
          disabled={!changed || disabled}
          className="justify-self-start text-xs font-semibold text-brand-700 hover:underline disabled:cursor-default disabled:text-ink-400 disabled:no-underline"
        >
          Reset to defaults (0.7, 2048)
        </button>
      </div>
    </details>
  );
}
