/// The reference client of imock (issue: reference client). Placeholder until its change lands.
public enum IMockClientModule {}
