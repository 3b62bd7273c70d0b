import { NATIVE_MODELS } from "@cohort/contracts";
import { Link } from "react-router";
import { Logo } from "../../components/logo";

/** The route table: the login screen's panel listing the built-in models. */
export function ModelsPanel() {
  return (
    <aside
      aria-labelledby="models-panel-title"
      className="relative overflow-hidden bg-gradient-to-br from-brand-950 via-brand-900 to-ink-950 px-6 py-10 text-white sm:px-10 lg:flex lg:flex-col lg:justify-between lg:py-12"
    >
      <div>
        <Link to="/" aria-label="Cohort home" className="hidden rounded-lg lg:inline-block">
          <Logo inverse />
        </Link>
        <h2
          id="models-panel-title"
          className="text-2xl font-bold tracking-tight sm:text-3xl lg:mt-10"
        >
          One team of models, working on your task
        </h2>
        <p className="mt-3 max-w-md text-sm leading-6 text-brand-100">
          A coordinator plans the work, the Strategist, Coder, Designer and Critic deliver it, each
          on the model that suits it. These are Cohort's built-in models:
        </p>
        <ul className="mt-8 grid grid-cols-2 gap-3 lg:grid-cols-1 xl:grid-cols-2">
          {NATIVE_MODELS.map((model) => (
            <li
              key={model.id}
              className="rounded-xl border border-white/10 bg-white/5 px-4 py-3 backdrop-blur-sm"
            >
              <p className="font-semibold">{model.name}</p>
              <p className="text-sm text-brand-200">{model.purpose}</p>
            </li>
          ))}
        </ul>
      </div>
      <p className="mt-10 text-xs text-brand-200">
        GPT, Claude and Gemini join them when you bring your own keys or use hosted credits.
      </p>
    </aside>
  );
}
