import { useState, type ChangeEvent } from 'react';

/** The keys of a form's values that hold text (what an input, a select or a textarea edits). */
type TextKey<T> = { [K in keyof T]: T[K] extends string ? K : never }[keyof T] & string;

type Messages<T> = Partial<Record<keyof T, string>>;

/**
 * A form's values and the messages its rules found at the last submit, in one place for every form:
 * `field(name)` gives a TextField its name, value, message and change handler (`control(name)` all but the
 * message, for a select), and `check()` runs the rules, shows what they found and says whether the values may
 * be sent.
 */
export function useFormFields<T extends object>(initial: T | (() => T), validate: (values: T) => Messages<T>) {
  const [values, setValues] = useState<T>(initial);
  const [errors, setErrors] = useState<Messages<T>>({});

  /** What a plain input, select or textarea needs to edit a value. */
  const control = <K extends TextKey<T>>(name: K) => ({
    name,
    value: values[name] as string,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) =>
      setValues((current) => ({ ...current, [name]: event.target.value })),
  });
  /** What a TextField needs: the control and the value's message. */
  const field = <K extends TextKey<T>>(name: K) => ({ ...control(name), error: errors[name] });

  const check = (): boolean => {
    const found = validate(values);
    setErrors(found);
    return Object.keys(found).length === 0;
  };

  return { values, setValues, field, control, check };
}
