import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { SelectRow, ToggleRow, type SaveState } from './controls';

afterEach(cleanup);

const idle: SaveState = { status: 'idle', error: null };

/**
 * A control whose store value and save state the test moves by hand, as the mutation and the
 * event queue would: `stored` is what the store holds, `save` the mutation's state.
 */
function Harness({ stored, save }: { stored: boolean; save: SaveState }) {
  const [calls, setCalls] = useState<boolean[]>([]);
  return (
    <>
      <ToggleRow
        label="Enter sends"
        checked={stored}
        save={save}
        onChange={(v) => setCalls((c) => [...c, v])}
      />
      <output>{calls.join(',')}</output>
    </>
  );
}

describe('ToggleRow', () => {
  it('shows the chosen state while the save is under way, then the store’s', () => {
    const { rerender } = render(<Harness stored={false} save={idle} />);
    const box = screen.getByRole('checkbox', { name: 'Enter sends' }) as HTMLInputElement;
    fireEvent.click(box);
    expect(box.checked).toBe(true);
    // The mutation runs: the store has not changed yet, the box keeps what was chosen.
    rerender(<Harness stored={false} save={{ status: 'pending', error: null }} />);
    expect(box.checked).toBe(true);
    rerender(<Harness stored={false} save={{ status: 'success', error: null }} />);
    expect(box.checked).toBe(true);
    // The event arrives and the store agrees; a later change from elsewhere shows at once.
    rerender(<Harness stored={true} save={{ status: 'success', error: null }} />);
    expect(box.checked).toBe(true);
    rerender(<Harness stored={false} save={{ status: 'success', error: null }} />);
    expect(box.checked).toBe(false);
    expect(screen.getByText('true')).toBeTruthy();
  });

  it('goes back to the store’s state when the save fails', () => {
    const { rerender } = render(<Harness stored={false} save={idle} />);
    const box = screen.getByRole('checkbox', { name: 'Enter sends' }) as HTMLInputElement;
    fireEvent.click(box);
    rerender(<Harness stored={false} save={{ status: 'pending', error: null }} />);
    expect(box.checked).toBe(true);
    rerender(<Harness stored={false} save={{ status: 'error', error: new Error('refused') }} />);
    expect(box.checked).toBe(false);
  });
});

describe('SelectRow', () => {
  function SelectHarness({ stored, save }: { stored: string; save: SaveState }) {
    return (
      <SelectRow
        label="Theme"
        value={stored}
        save={save}
        options={[
          ['light', 'Light'],
          ['dark', 'Dark'],
        ]}
        onChange={() => {}}
      />
    );
  }

  it('keeps the chosen option until the store holds it or the save fails', () => {
    const { rerender } = render(<SelectHarness stored="light" save={idle} />);
    const select = screen.getByRole('combobox', { name: 'Theme' }) as HTMLSelectElement;
    fireEvent.change(select, { target: { value: 'dark' } });
    rerender(<SelectHarness stored="light" save={{ status: 'pending', error: null }} />);
    expect(select.value).toBe('dark');
    rerender(<SelectHarness stored="light" save={{ status: 'error', error: new Error('no') }} />);
    expect(select.value).toBe('light');
  });
});
