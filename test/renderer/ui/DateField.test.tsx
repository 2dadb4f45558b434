// @vitest-environment happy-dom
// A day typed in the desk's format, not the browser's date picker: the ISO day sent under the field's name, the
// pattern shown in the desk's language, and a wrong day named with its field once the agent leaves it.
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DateField } from '../../../renderer/src/ui/DateField';
import { renderIn } from '../support/render';

describe('DateField', () => {
  it('in Spanish: dd/mm/aaaa, the ISO day under its name, no browser date input', () => {
    const onChange = vi.fn();
    const { container } = renderIn(
      'es-MX',
      <form>
        <DateField id="from" name="from" label="Desde" initial="2025-03-14" onChange={onChange} />
      </form>,
    );
    const input = screen.getByLabelText<HTMLInputElement>('Desde');
    expect(input.value).toBe('14/03/2025');
    expect(input.type).toBe('text');
    expect(container.querySelector('input[type=date]')).toBeNull();
    expect(screen.getByText('dd/mm/aaaa')).toBeTruthy();
    fireEvent.change(input, { target: { value: '01/12/2025' } });
    expect(onChange).toHaveBeenLastCalledWith('2025-12-01');
    expect(new FormData(container.querySelector('form') ?? undefined).get('from')).toBe('2025-12-01');
  });

  it('a day that does not exist is named with its field once left, and nothing is sent for it', () => {
    const onChange = vi.fn();
    const { container } = renderIn(
      'en-US',
      <form>
        <DateField id="to" name="to" label="To" onChange={onChange} />
      </form>,
    );
    const input = screen.getByLabelText('To');
    fireEvent.change(input, { target: { value: '02/30/2025' } });
    expect(onChange).not.toHaveBeenCalled();
    fireEvent.blur(input);
    expect(screen.getByText('To: type the day as mm/dd/yyyy, for example 03/14/2025.')).toBeTruthy();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(new FormData(container.querySelector('form') ?? undefined).get('to')).toBe('');
  });
});
