import RateCore
