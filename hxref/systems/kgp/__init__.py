"""ASL Kampfgruppe Peiper: the campaign referee and terrain calculators."""
