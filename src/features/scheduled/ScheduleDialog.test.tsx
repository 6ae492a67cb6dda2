import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ScheduleDialog } from './ScheduleDialog';
import { toInputValue } from './schedule-times';

afterEach(cleanup);

describe('ScheduleDialog', () => {
  it('refuses a time that has passed without asking the server', () => {
    const onSchedule = vi.fn(() => Promise.resolve());
    render(<ScheduleDialog title="Schedule message" onSchedule={onSchedule} onClose={vi.fn()} />);
    fireEvent.change(screen.getByLabelText('Date and time'), {
      target: { value: toInputValue(new Date(Date.now() - 3600_000)) },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Schedule' }));
    expect(screen.getByRole('alert').textContent).toBe(
      'That time has passed. Choose a time in the future.',
    );
    expect(onSchedule).not.toHaveBeenCalled();
  });

  it('schedules a quick choice and closes', async () => {
    const onSchedule = vi.fn((_at: Date) => Promise.resolve());
    const onClose = vi.fn();
    render(<ScheduleDialog title="Schedule message" onSchedule={onSchedule} onClose={onClose} />);
    fireEvent.click(screen.getByRole('button', { name: /^In 1 hour/ }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const at = onSchedule.mock.calls[0][0];
    expect(at.getTime()).toBeGreaterThan(Date.now() + 3500_000);
  });

  it('shows why the server refused', async () => {
    const onSchedule = vi.fn(() => Promise.reject(new Error('nope')));
    const onClose = vi.fn();
    render(<ScheduleDialog title="Schedule message" onSchedule={onSchedule} onClose={onClose} />);
    fireEvent.click(screen.getAllByRole('button', { name: /^Tomorrow at/ })[0]);
    expect((await screen.findByRole('alert')).textContent).toBe('nope');
    expect(onClose).not.toHaveBeenCalled();
  });
});
