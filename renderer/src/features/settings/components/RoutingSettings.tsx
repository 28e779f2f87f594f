import type { Settings } from '../../../../../shared/contract';
import { RefreshIcon } from '../../../ui/icons';
import { FACTOR_META, FACTOR_NAMES } from '../../routing/factors';
import { ROUTING_DEFAULTS, useSettingsStore } from '../store';
import { SliderRow } from './SliderRow';
import { WeightsSum } from './WeightsSum';

/** DESIGN §3: every weight, T and k is a setting; the score panel follows each change. */
export function RoutingSettings({ routing }: { routing: Settings['routing'] }) {
  const updateRouting = useSettingsStore((s) => s.updateRouting);
  const resetRouting = useSettingsStore((s) => s.resetRouting);
  const isDefault =
    routing.threshold === ROUTING_DEFAULTS.threshold &&
    routing.topK === ROUTING_DEFAULTS.topK &&
    FACTOR_NAMES.every((name) => routing.weights[name] === ROUTING_DEFAULTS.weights[name]);

  return (
    <section
      className="settings-card"
      aria-labelledby="routing-settings-title"
      data-testid="routing-settings"
    >
      <header className="settings-card__header">
        <div>
          <h2 id="routing-settings-title">Routing</h2>
          <p className="muted">
            score = Σ weight × factor. A skill is selected when its score reaches T, unless it is forced.
          </p>
        </div>
        <button
          type="button"
          className="button button--small"
          onClick={resetRouting}
          disabled={isDefault}
          data-testid="settings-reset"
        >
          <RefreshIcon size={13} /> Reset to defaults
        </button>
      </header>

      <div className="settings-card__group">
        <div className="settings-card__group-head">
          <h3>Weights</h3>
          <WeightsSum weights={routing.weights} />
        </div>
        {FACTOR_NAMES.map((name) => (
          <SliderRow
            key={name}
            label={
              <>
                <span className={`factor-swatch factor-${name}`} />
                {FACTOR_META[name].label}
                <code>{name}</code>
              </>
            }
            description={FACTOR_META[name].description}
            value={routing.weights[name]}
            min={0}
            max={1}
            step={0.01}
            accent={`var(--factor-${name})`}
            onChange={(value) => updateRouting({ weights: { [name]: value } })}
            testId={`setting-weight-${name}`}
          />
        ))}
      </div>

      <div className="settings-card__group">
        <h3>Selection</h3>
        <SliderRow
          label="Threshold T"
          description="The score a candidate needs to be selected. Nothing over T and nothing forced: plain chat."
          value={routing.threshold}
          min={0}
          max={1}
          step={0.01}
          accent="var(--threshold)"
          onChange={(threshold) => updateRouting({ threshold })}
          testId="setting-threshold"
        />
        <SliderRow
          label="Semantic top-k"
          description="How many skills lexical recall brings up per message, besides forced and trigger hits."
          value={routing.topK}
          min={1}
          max={20}
          step={1}
          onChange={(topK) => updateRouting({ topK })}
          testId="setting-topk"
        />
      </div>
    </section>
  );
}
